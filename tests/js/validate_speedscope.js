// SPDX-License-Identifier: GPL-2.0-only
// Validates a speedscope file against the JSON schema that the speedscope
// npm package ships (dist/release/file-format-schema.json), with ajv.
//   node tests/js/validate_speedscope.js FILE
// Exit 0: valid; 1: invalid (the errors printed); 2: cannot run.
'use strict';
const fs = require('fs');
const path = require('path');
let Ajv, schema;
try {
  Ajv = require('ajv');
  schema = JSON.parse(fs.readFileSync(path.join(__dirname,
    'node_modules/speedscope/dist/release/file-format-schema.json'), 'utf8'));
} catch (e) {
  console.log('cannot load ajv or the schema: ' + e.message);
  process.exit(2);
}
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(schema);
const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
if (!validate(doc)) {
  console.log(JSON.stringify(validate.errors.slice(0, 5), null, 1));
  process.exit(1);
}
console.log(process.argv[2] + ': valid against speedscope ' +
  require('speedscope/package.json').version + "'s file-format-schema.json");
