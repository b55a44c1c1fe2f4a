// What `require('fxterm')` gets (the package's `require` export condition): fxterm is published
// as ES modules only, and this says so in one sentence instead of ERR_PACKAGE_PATH_NOT_EXPORTED.
throw Object.assign(new Error("fxterm is an ES module package: load it with import (or await import('fxterm') from CommonJS), not require()."), { code: 'ERR_REQUIRE_ESM' })
