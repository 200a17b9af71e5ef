module.exports = require('../../jest.preset.js')('db', __dirname);
