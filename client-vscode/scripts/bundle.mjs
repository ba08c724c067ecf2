// Bundles the extension and vscode-languageclient into one file, so the .vsix
// ships no node_modules (smaller, faster to activate).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
await build({
    entryPoints: [path.join(root, 'client-vscode/src/extension.ts')],
    outfile: path.join(root, 'client-vscode/out/extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: true,
    minify: true,
    logLevel: 'warning',
});
