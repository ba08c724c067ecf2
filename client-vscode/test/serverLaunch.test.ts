import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundledLibsDir, bundleProblem, checkLaunch, diagnoseLaunch, installCommand, serverLaunch } from '../src/serverLaunch';

/** The repository's venv, which has torchplace installed (scripts/setup makes it). */
const VENV_PYTHON = process.env.TORCHPLACE_TEST_PYTHON ?? path.resolve(__dirname, '../../../.venv/bin/python');

test('fromEnvironment runs `python -m torchplace_server` with the interpreter\'s own arguments', () => {
    const launch = serverLaunch(['/py', '-X', 'utf8'], 'fromEnvironment', '/ext', { PATH: '/bin', PYTHONPATH: '/mine' });
    assert.equal(launch.command, '/py');
    assert.deepEqual(launch.args, ['-X', 'utf8', '-m', 'torchplace_server']);
    assert.equal(launch.env.PYTHONPATH, '/mine');
    assert.equal(launch.env.TORCHPLACE_BUNDLED, undefined);
});

test('useBundled puts the bundled libraries first on PYTHONPATH', () => {
    const launch = serverLaunch(['/py'], 'useBundled', '/ext', { PYTHONPATH: '/mine' });
    assert.equal(launch.env.PYTHONPATH, `${bundledLibsDir('/ext')}${path.delimiter}/mine`);
    assert.equal(launch.env.TORCHPLACE_BUNDLED, '1');
    assert.deepEqual(launch.args, ['-m', 'torchplace_server']);
});

test('a missing interpreter says so and points at torchplace.interpreter', async () => {
    const problem = await checkLaunch(serverLaunch(['/nonexistent/python3'], 'fromEnvironment', '/ext'));
    assert.equal(problem?.kind, 'interpreter-missing');
    assert.equal(problem?.setting, 'torchplace.interpreter');
    assert.match(problem!.message, /\/nonexistent\/python3/);
});

test('a program that is not Python is reported as broken', async () => {
    const problem = await checkLaunch(serverLaunch(['/bin/false'], 'fromEnvironment', '/ext'));
    assert.equal(problem?.kind, 'interpreter-broken');
});

test('Python without torchplace: the install command and the useBundled alternative', { skip: !fs.existsSync(VENV_PYTHON) && 'no .venv' }, async () => {
    // `-S` skips site-packages, so this real interpreter cannot import torchplace.
    const problem = await checkLaunch(serverLaunch([VENV_PYTHON, '-S'], 'fromEnvironment', '/ext'));
    assert.equal(problem?.kind, 'torchplace-missing');
    assert.equal(problem?.fixCommand, `${VENV_PYTHON} -m pip install torchplace`);
    assert.equal(problem?.setting, 'torchplace.importStrategy');
});

test('the install command names what this extension was installed from', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-install-'));
    assert.equal(installCommand('/py/bin/python', root), '/py/bin/python -m pip install torchplace', 'neither: the index');
    fs.writeFileSync(path.join(root, 'pyproject.toml'), '[project]\nname = "torchplace"\n');
    assert.equal(installCommand('/py/bin/python', root), `/py/bin/python -m pip install ${root}`, 'a repository checkout');
    const wheels = path.join(root, 'client-vscode', 'out', 'wheel');
    fs.mkdirSync(wheels, { recursive: true });
    fs.writeFileSync(path.join(wheels, 'torchplace-0.1.0-py3-none-any.whl'), '');
    assert.equal(installCommand('/py/bin/python', root), `/py/bin/python -m pip install ${path.join(wheels, 'torchplace-0.1.0-py3-none-any.whl')}`, 'the shipped wheel');
    assert.equal(installCommand('/my py/python', root, true).startsWith('"/my py/python" -m pip install --force-reinstall '), true);
    fs.rmSync(root, { recursive: true });
});

test('useBundled with an empty bundle says the build does not match', { skip: !fs.existsSync(VENV_PYTHON) && 'no .venv' }, async () => {
    const ext = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ext-'));
    const problem = await checkLaunch(serverLaunch([VENV_PYTHON, '-S'], 'useBundled', ext));
    assert.equal(problem?.kind, 'torchplace-broken');
    assert.match(problem!.message, /bundled/);
    fs.rmSync(ext, { recursive: true });
});

test('the repository venv can start the server', { skip: !fs.existsSync(VENV_PYTHON) && 'no .venv' }, async () => {
    assert.equal(await checkLaunch(serverLaunch([VENV_PYTHON], 'fromEnvironment', '/ext')), undefined);
});

test('an old Python is named with the version needed', () => {
    const launch = serverLaunch(['/py'], 'fromEnvironment', '/ext', {});
    const problem = diagnoseLaunch(launch, { error: null, stdout: 'python 3.8\nok\n', stderr: '' });
    assert.equal(problem?.kind, 'python-too-old');
    assert.match(problem!.message, /3\.10 or newer.*3\.8/);
});

test('an import error inside torchplace is shown with its message', () => {
    const launch = serverLaunch(['/py'], 'fromEnvironment', '/ext', {});
    const problem = diagnoseLaunch(launch, { error: null, stdout: 'python 3.11\nbroken ImportError libcst native module\n', stderr: '' });
    assert.equal(problem?.kind, 'torchplace-broken');
    assert.match(problem!.message, /ImportError libcst native module/);
    const dep = diagnoseLaunch(launch, { error: null, stdout: 'python 3.11\nmissing pygls\n', stderr: '' });
    assert.match(dep!.message, /dependency "pygls" is missing/);
});

test('useBundled in a build without a bundle names the setting to change', () => {
    const ext = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-ext-'));
    assert.equal(bundleProblem(ext, 'fromEnvironment'), undefined);
    assert.equal(bundleProblem(ext, 'useBundled')?.kind, 'bundle-missing');
    fs.mkdirSync(path.join(bundledLibsDir(ext), 'torchplace_server'), { recursive: true });
    assert.equal(bundleProblem(ext, 'useBundled'), undefined);
    fs.rmSync(ext, { recursive: true });
});
