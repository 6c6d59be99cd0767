// One short-lived connection per statement: the benches' setup and bookkeeping queries (never on a measured path).
const { Client } = require('pg');

async function sql(url, text, params) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows;
  } finally {
    await c.end();
  }
}

module.exports = { sql };
