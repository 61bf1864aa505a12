const { src, dest, parallel } = require('gulp');

// tsc emits only JavaScript; n8n also reads the icons and each node's codex file (*.node.json)
// from files next to the built code.
function copyIcons() {
	return src('icons/**/*.svg', { encoding: false }).pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:icons'] = parallel(copyIcons, copyCodex);
