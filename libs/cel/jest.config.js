module.exports = require('../../jest.preset.js')('cel', __dirname);
