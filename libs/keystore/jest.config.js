module.exports = require('../../jest.preset.js')('keystore', __dirname);
