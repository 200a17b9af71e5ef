module.exports = require('../../jest.preset.js')('sensitive', __dirname);
