module.exports = require('../../jest.preset.js')('auth', __dirname);
