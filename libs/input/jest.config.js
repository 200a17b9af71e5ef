module.exports = require('../../jest.preset.js')('input', __dirname);
