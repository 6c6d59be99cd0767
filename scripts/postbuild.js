// `node dist/main.js` starts the service (docs/contract/); the compiler writes dist/src/main.js because
// migrations/ sits beside src/, so this writes the one-line entry point.
const fs = require('node:fs');
const path = require('node:path');
fs.writeFileSync(path.join(__dirname, '..', 'dist', 'main.js'), "'use strict';\nrequire('./src/main.js');\n");
// `node dist/mcp-stdio.js`: the stdio bridge to the MCP endpoint for desktop clients that only launch processes (issue 18).
fs.writeFileSync(path.join(__dirname, '..', 'dist', 'mcp-stdio.js'), "'use strict';\nrequire('./src/mcp-stdio.js');\n");

// The empty embedded data directory a new SERVICE_DATA_DIR is copied from (src/database/embedded-postgres.ts).
require('node:child_process').execFileSync(process.execPath, [path.join(__dirname, 'make-embedded-template.js')], { stdio: 'inherit' });
