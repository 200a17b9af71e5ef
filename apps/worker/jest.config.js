module.exports = require('../../jest.preset.js')('worker', __dirname);
