module.exports = require('../../jest.preset.js')('registry', __dirname);
