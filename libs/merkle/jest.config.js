module.exports = require('../../jest.preset.js')('merkle', __dirname);
