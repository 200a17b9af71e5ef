module.exports = require('../../jest.preset.js')('queue', __dirname);
