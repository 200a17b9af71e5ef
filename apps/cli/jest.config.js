module.exports = require('../../jest.preset.js')('cli', __dirname);
