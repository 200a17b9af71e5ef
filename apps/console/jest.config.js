module.exports = require('../../jest.preset.js')('console', __dirname);
