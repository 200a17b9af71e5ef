module.exports = require('../../jest.preset.js')('archive', __dirname);
