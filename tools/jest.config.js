const config = require('../jest.preset.js')('tools', __dirname);
config.testMatch = ['<rootDir>/**/*.spec.ts'];
module.exports = config;
