#!/usr/bin/env bash
# Issue 38: a streaming replica of the local PostgreSQL and PgBouncer (transaction mode) in front of it, for the tests
# and the bench. Idempotent: starts what is missing, leaves what runs alone, never restarts the primary (a pg_hba
# reload at most). Used by .ci/run before `npm test` and by test/support/replica.ts when a test finds them missing.
#
#   primary    127.0.0.1:5432 (the Debian cluster, trust on loopback)
#   replica    127.0.0.1:${REPLICA_PORT:-5433}, data in ${REPLICA_DIR:-/var/tmp/vending-replica} (pg_basebackup -R, slot vending_replica)
#   pgbouncer  127.0.0.1:${PGBOUNCER_PORT:-6432} -> the primary, pool_mode transaction (config: test/support/pgbouncer.ini)
#
# `scripts/test-replica.sh restart-pgbouncer` restarts PgBouncer online (-R: the new process takes over the client
# sockets, the way PgBouncer 1.18 restarts without dropping its clients); `start-pgbouncer` starts it after a hard
# stop (test/support/replica.ts `hardRestartPgBouncer`).
set -euo pipefail
cd "$(dirname "$0")/.."

PRIMARY_PORT=5432
REPLICA_PORT=${REPLICA_PORT:-5433}
REPLICA_DIR=${REPLICA_DIR:-/var/tmp/vending-replica}
BOUNCER_DIR=${BOUNCER_DIR:-/var/tmp/vending-pgbouncer}
PGBOUNCER_PORT=${PGBOUNCER_PORT:-6432}
PGBIN=/usr/lib/postgresql/$(ls /etc/postgresql | sort -V | tail -n 1)/bin

# The lock's descriptor is closed for every child: a server started here must not hold it for its whole life.
as_postgres() { if [ "$(id -un)" = postgres ]; then bash -c "$1" 9>&-; else su postgres -s /bin/bash -c "$1" 9>&-; fi; }
q() { psql -h 127.0.0.1 -p "$1" -U postgres -d postgres -Atc "$2"; }

# One setup at a time (jest workers and .ci/run may all ask).
mkdir -p /var/tmp
exec 9>/var/tmp/vending-replica.lock
flock 9

ensure_replication_hba() {
  local hba
  hba=$(q $PRIMARY_PORT 'show hba_file')
  if ! grep -Eq '^host\s+replication\s+all\s+127\.0\.0\.1/32\s+trust' "$hba"; then
    echo "== pg_hba: replication from loopback (trust), then a reload"
    echo 'host replication all 127.0.0.1/32 trust' >>"$hba"
    q $PRIMARY_PORT 'select pg_reload_conf()' >/dev/null
  fi
}

replica_up() { [ "$(q "$REPLICA_PORT" 'select pg_is_in_recovery()' 2>/dev/null)" = t ]; }

# The replica streams through a physical replication slot: the primary keeps every WAL segment the replica has not
# received yet. Without one, a replica stopped for two seconds (the fault tests do that) could find its next segment
# already recycled by a checkpoint and wait for it forever.
SLOT=vending_replica
slot_active() { [ "$(q $PRIMARY_PORT "select active from pg_replication_slots where slot_name = '$SLOT'")" = t ]; }

start_replica() {
  as_postgres "$PGBIN/pg_ctl -D $REPLICA_DIR -l $REPLICA_DIR/server.log -w -t 60 start" >/dev/null
}

make_replica() {
  echo "== replica: pg_basebackup of 127.0.0.1:$PRIMARY_PORT into $REPLICA_DIR"
  rm -rf "$REPLICA_DIR"
  install -d -o postgres -g postgres -m 700 "$REPLICA_DIR"
  q $PRIMARY_PORT "select pg_drop_replication_slot('$SLOT') from pg_replication_slots where slot_name = '$SLOT'" >/dev/null
  # -C -S: the slot is made with the copy, and -R names it in the copy's primary_slot_name.
  as_postgres "pg_basebackup -h 127.0.0.1 -p $PRIMARY_PORT -U postgres -D $REPLICA_DIR -R -X stream -c fast -C -S $SLOT"
  # The Debian cluster keeps its configuration in /etc: the copy gets its own. A hot standby needs at least the
  # primary's connection, worker and lock limits.
  local setting
  {
    echo "port = $REPLICA_PORT"
    echo "listen_addresses = '127.0.0.1'"
    echo "unix_socket_directories = '/var/run/postgresql'"
    echo "hot_standby = on"
    # Queries on the standby are not cancelled for vacuum on the primary (the service retries on the primary anyway).
    echo "hot_standby_feedback = on"
    echo "shared_buffers = 32MB"
    for setting in max_connections max_worker_processes max_wal_senders max_prepared_transactions max_locks_per_transaction; do
      echo "$setting = $(q $PRIMARY_PORT "show $setting")"
    done
    echo "logging_collector = off"
  } >"$REPLICA_DIR/postgresql.conf"
  printf 'local all all trust\nhost all all 127.0.0.1/32 trust\n' >"$REPLICA_DIR/pg_hba.conf"
  chown postgres:postgres "$REPLICA_DIR/postgresql.conf" "$REPLICA_DIR/pg_hba.conf"
  start_replica
}

ensure_replica() {
  ensure_replication_hba
  if replica_up && slot_active; then
    # Replay may have been paused by a fault test that did not finish.
    q "$REPLICA_PORT" 'select pg_wal_replay_resume()' >/dev/null 2>&1 || true
    return 0
  fi
  if ! replica_up && [ -f "$REPLICA_DIR/standby.signal" ]; then
    echo "== replica: starting $REPLICA_DIR on $REPLICA_PORT"
    start_replica || true
  fi
  # A copy that cannot start, or does not stream through the slot (one made without it, or whose WAL is gone from the
  # primary), is made again. One just started takes a moment to connect.
  if ! replica_up || ! slot_active; then
    sleep 2
    if ! replica_up || ! slot_active; then
      as_postgres "$PGBIN/pg_ctl -D $REPLICA_DIR -m fast stop" >/dev/null 2>&1 || true
      make_replica
    fi
  fi
  replica_up
}

bouncer_up() { [ "$(q "$PGBOUNCER_PORT" 'select 1' 2>/dev/null)" = 1 ]; }

write_bouncer_config() {
  install -d -o postgres -g postgres -m 755 "$BOUNCER_DIR"
  sed -e "s#@DIR@#$BOUNCER_DIR#g" -e "s#@PORT@#$PGBOUNCER_PORT#g" -e "s#@PRIMARY_PORT@#$PRIMARY_PORT#g" \
    test/support/pgbouncer.ini >"$BOUNCER_DIR/pgbouncer.ini"
  echo '"postgres" ""' >"$BOUNCER_DIR/userlist.txt"
  chown postgres:postgres "$BOUNCER_DIR/pgbouncer.ini" "$BOUNCER_DIR/userlist.txt"
}

ensure_pgbouncer() {
  if ! command -v pgbouncer >/dev/null 2>&1; then
    echo "== installing PgBouncer from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq pgbouncer >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq pgbouncer >/dev/null; }
  fi
  if bouncer_up; then return 0; fi
  echo "== pgbouncer on $PGBOUNCER_PORT (transaction mode)"
  write_bouncer_config
  as_postgres "pgbouncer -d $BOUNCER_DIR/pgbouncer.ini"
  for _ in $(seq 1 50); do bouncer_up && return 0; sleep 0.1; done
  bouncer_up
}

case "${1:-up}" in
  up)
    ensure_replica
    ensure_pgbouncer
    echo "== replica 127.0.0.1:$REPLICA_PORT and pgbouncer 127.0.0.1:$PGBOUNCER_PORT are up"
    ;;
  restart-pgbouncer)
    write_bouncer_config
    as_postgres "pgbouncer -d -R $BOUNCER_DIR/pgbouncer.ini"
    for _ in $(seq 1 50); do bouncer_up && exit 0; sleep 0.1; done
    bouncer_up
    ;;
  start-pgbouncer)
    # After a hard stop (the hard-restart test kills the process): the same config, a new process.
    write_bouncer_config
    as_postgres "pgbouncer -d $BOUNCER_DIR/pgbouncer.ini"
    for _ in $(seq 1 50); do bouncer_up && exit 0; sleep 0.1; done
    bouncer_up
    ;;
  *)
    echo "usage: $0 [up|restart-pgbouncer|start-pgbouncer]" >&2
    exit 2
    ;;
esac
