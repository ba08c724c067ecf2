// Packages the .vsix from a staging folder holding only what ships, so vsce
// does not walk the repository (.venv, node_modules, code-server caches).
// Every .vsix carries the rule pages (docs/rules, shown rendered by the
// extension) and a wheel of torchplace (the install command the extension
// suggests points at it: `pip install <extension>/client-vscode/out/wheel/...`).
// The manifest's repository link is the checkout's git remote, when it has one.
// Usage: node client-vscode/scripts/package.mjs [--target linux-x64] [-o out.vsix]
// For the Marketplace, set VSCE_BASE_URL to where the repository's files are
// served (e.g. https://raw.githubusercontent.com/OWNER/REPO/main/) so that the
// README's images become absolute; without it they point into the .vsix,
// which is what VS Code's extension page shows.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('-o');
const output = path.resolve(outIndex >= 0 ? args.splice(outIndex, 2)[1] : path.join(root, 'client-vscode/out/torchplace.vsix'));
const stage = path.join(root, 'client-vscode/out/vsix-stage');

fs.rmSync(stage, { recursive: true, force: true });
const copy = (rel) => {
    const from = path.join(root, rel);
    if (fs.existsSync(from)) {
        fs.cpSync(from, path.join(stage, rel), { recursive: true, filter: (p) => !p.includes('__pycache__') });
    }
};
for (const rel of ['package.json', '.vscodeignore', 'client-vscode/README.md', 'client-vscode/CHANGELOG.md', 'client-vscode/media',
    'client-vscode/walkthrough', 'client-vscode/out/extension.js']) {
    copy(rel);
}
fs.cpSync(path.join(root, 'docs/rules'), path.join(stage, 'client-vscode/out/rules'), { recursive: true });
const python = process.env.TORCHPLACE_PYTHON ?? path.join(root, '.venv/bin/python');
execFileSync(python, ['-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '-q', '-w', path.join(stage, 'client-vscode/out/wheel'), root],
    { stdio: ['ignore', 'ignore', 'inherit'] });
if (args.includes('--target')) {
    if (!fs.existsSync(path.join(root, 'client-vscode/out/bundled/libs/torchplace_server'))) {
        throw new Error('a platform package needs the bundled server: run client-vscode/scripts/bundle-server.sh first');
    }
    copy('client-vscode/out/bundled');
    // vsce's secret scan takes many minutes on thousands of third-party files
    // (wheels from PyPI); the extension's own files are scanned in the universal build.
    args.push('--allow-package-all-secrets');
}
// vsce ships the README as extension/readme.md: make its links relative to the root.
const readme = path.join(stage, 'client-vscode/README.md');
fs.writeFileSync(readme, fs.readFileSync(readme, 'utf8').replace(/\]\(media\//g, '](client-vscode/media/'));
const base = process.env.VSCE_BASE_URL;
const links = base ? ['--baseImagesUrl', base, '--baseContentUrl', base] : ['--no-rewrite-relative-links'];
// The stage has no scripts to run: the bundle was built by `npm run compile`.
const manifest = JSON.parse(fs.readFileSync(path.join(stage, 'package.json'), 'utf8'));
delete manifest.scripts;
delete manifest.devDependencies;
const remote = gitRemote();
if (remote && !manifest.repository) {
    manifest.repository = { type: 'git', url: remote };
    manifest.bugs = { url: `${remote.replace(/\.git$/, '')}/issues` };
}
fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify(manifest, null, 2));
execFileSync(
    path.join(root, 'node_modules/.bin/vsce'),
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--readme-path', 'client-vscode/README.md', '-o', output, ...links, ...args],
    { cwd: stage, stdio: 'inherit' },
);
fs.rmSync(stage, { recursive: true, force: true });

/** The checkout's `origin` as an https URL, or undefined (no remote: no link rather than an invented one). */
function gitRemote() {
    try {
        const url = execFileSync('git', ['-C', root, 'remote', 'get-url', 'origin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
        const ssh = /^git@([^:]+):(.+)$/.exec(url);
        return ssh ? `https://${ssh[1]}/${ssh[2]}` : /^https:\/\//.test(url) ? url : undefined;
    } catch {
        return undefined;
    }
}
