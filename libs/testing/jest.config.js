module.exports = require('../../jest.preset.js')('testing', __dirname);
