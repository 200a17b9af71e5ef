module.exports = require('../../jest.preset.js')('http', __dirname);
