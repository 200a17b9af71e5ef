module.exports = require('../../jest.preset.js')('internal-api', __dirname);
