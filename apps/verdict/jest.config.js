module.exports = require('../../jest.preset.js')('verdict', __dirname);
