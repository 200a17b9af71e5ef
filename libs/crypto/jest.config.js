module.exports = require('../../jest.preset.js')('crypto', __dirname);
