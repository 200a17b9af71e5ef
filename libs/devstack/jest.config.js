module.exports = require('../../jest.preset.js')('devstack', __dirname);
