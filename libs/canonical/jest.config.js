const config = require('../../jest.preset.js')('canonical', __dirname);

// canonicalize v4 exports only an "import" condition, which Jest's CommonJS resolver does not
// match ("Cannot find module 'canonicalize'"). Point Jest at the file; swc transforms it.
// Any other project whose tests import @arbiter/canonical needs the same entry (best in jest.preset.js).
config.moduleNameMapper = {
  ...config.moduleNameMapper,
  '^canonicalize$': require('node:path').join(__dirname, '../../node_modules/canonicalize/lib/canonicalize.js'),
};

module.exports = config;
