// `node dist/main.js` starts the service (decisions.md section 0); the compiler writes dist/src/main.js because
// migrations/ sits beside src/, so this writes the one-line entry point.
const fs = require('node:fs');
const path = require('node:path');
fs.writeFileSync(path.join(__dirname, '..', 'dist', 'main.js'), "'use strict';\nrequire('./src/main.js');\n");
