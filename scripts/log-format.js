// Issue 28: what `npm start` shows on a terminal. The service always writes pino JSON (`node dist/main.js`, production,
// containers); on a terminal the start script formats each line with pino-pretty: one line per entry, a request as
// "GET /path 200 3 ms". Not a terminal (piped to a file or a collector): the JSON passes through unchanged.
const { prettyFactory } = require('pino-pretty');

/** The message of one entry: a request line as method, path, status and time; anything else as `[context] msg`. */
function messageFormat(log, messageKey) {
  const msg = log[messageKey] ?? '';
  if (log.req && log.res) return `${log.req.method} ${log.req.path} ${log.res.statusCode} ${log.responseTime ?? '?'} ms${msg === 'request completed' ? '' : ` (${msg})`}`;
  return log.context ? `[${log.context}] ${msg}` : msg;
}

/** A function from one JSON log line to what the terminal shows (ending in a newline). */
function prettyLine({ colorize = false } = {}) {
  return prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service,context,req,res,responseTime',
    messageFormat,
  });
}

/**
 * Reads the service's stdout line by line: `write` gets each line as shown (pretty or as it came); `onListening`
 * is called once, with the service's URL, when the service says it listens.
 */
function lineReader({ pretty, colorize, write, onListening }) {
  const format = pretty ? prettyLine({ colorize }) : (line) => `${line}\n`;
  let buf = '';
  let listening = false;
  const line = (text) => {
    if (text === '') return;
    write(format(text));
    if (listening) return;
    const m = /"msg":"listening on (\S+)/.exec(text);
    if (m) {
      listening = true;
      onListening(m[1]);
    }
  };
  return {
    push(chunk) {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        line(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    },
    end() {
      line(buf);
      buf = '';
    },
  };
}

module.exports = { prettyLine, lineReader };
