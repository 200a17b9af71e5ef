module.exports = require('../../jest.preset.js')('ledger', __dirname);
