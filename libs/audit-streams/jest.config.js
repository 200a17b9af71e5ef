module.exports = require('../../jest.preset.js')('audit-streams', __dirname);
