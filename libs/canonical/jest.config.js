module.exports = require('../../jest.preset.js')('canonical', __dirname);
