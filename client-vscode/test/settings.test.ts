import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changeEffect, DEFAULT_SETTINGS, problemsMessage, readSettings, serverSettings, substitute, TorchplaceSettings } from '../src/settings';

function read(values: Record<string, unknown>, context = {}) {
    return readSettings((key) => values[key], context);
}

test('defaults when nothing is set', () => {
    const { settings, problems } = read({});
    assert.deepEqual(settings, DEFAULT_SETTINGS);
    assert.deepEqual(problems, []);
});

test('valid values are kept, codes upper-cased, names kept', () => {
    const { settings, problems } = read({
        enable: false,
        select: ['tp1', 'TP201', 'mixed-devices'],
        ignore: ['TP301'],
        severity: { tp201: 'error', TP402: 'info' },
        extraDeviceNames: ['gpu', 'self.device'],
        interpreter: ['/opt/py/bin/python', '-X', 'utf8'],
        importStrategy: 'useBundled',
        showNotifications: 'always',
        'probe.timeout': 5,
        'probe.simulateGpu': 'on',
        'probe.existingKernel': '/tmp/kernel-1.json',
    });
    assert.deepEqual(problems, []);
    assert.equal(settings.enable, false);
    assert.deepEqual(settings.select, ['TP1', 'TP201', 'mixed-devices']);
    assert.deepEqual(settings.severity, { TP201: 'error', TP402: 'information' });
    assert.deepEqual(settings.extraDeviceNames, ['gpu', 'self.device']);
    assert.deepEqual(settings.interpreter, ['/opt/py/bin/python', '-X', 'utf8']);
    assert.equal(settings.importStrategy, 'useBundled');
    assert.deepEqual(settings.probe, { timeout: 5, simulateGpu: 'on', existingKernel: '/tmp/kernel-1.json', args: [] });
});

test('wrong values fall back to defaults and name the setting with the fix', () => {
    const { settings, problems } = read({
        enable: 'yes',
        select: 'TP1',
        ignore: [3],
        severity: { TP201: 'fatal', TP101: 'error' },
        importStrategy: 'bundled',
        showNotifications: true,
        'probe.timeout': -1,
        'probe.simulateGpu': 'maybe',
        extraDeviceNames: ['not a name'],
    });
    assert.equal(settings.enable, true);
    assert.deepEqual(settings.select, ['TP1'], 'a single string is accepted as a one-item list');
    assert.deepEqual(settings.ignore, []);
    assert.deepEqual(settings.severity, { TP101: 'error' });
    assert.equal(settings.importStrategy, 'fromEnvironment');
    assert.equal(settings.probe.timeout, 60);
    assert.equal(settings.probe.simulateGpu, 'auto');
    const keys = problems.map((p) => p.key).sort();
    assert.deepEqual(keys, [
        'torchplace.enable',
        'torchplace.extraDeviceNames',
        'torchplace.ignore',
        'torchplace.importStrategy',
        'torchplace.probe.simulateGpu',
        'torchplace.probe.timeout',
        'torchplace.severity',
        'torchplace.showNotifications',
    ]);
    const strategy = problems.find((p) => p.key === 'torchplace.importStrategy');
    assert.match(strategy!.message, /"fromEnvironment", "useBundled", got "bundled"; using "fromEnvironment"/);
});

test('unknown rule selectors are reported and dropped', () => {
    const { settings, problems } = read({ select: ['TP101', 'not a code!'] });
    assert.deepEqual(settings.select, ['TP101']);
    assert.equal(problems.length, 1);
    assert.match(problems[0].message, /not a code!/);
});

test('interpreter paths expand ${workspaceFolder}, ${userHome}, ${env:X} and ~', () => {
    const ctx = { workspaceFolder: '/w', userHome: '/home/u', env: { VENV: '/v' } };
    const { settings } = read({ interpreter: ['${workspaceFolder}/.venv/bin/python'], 'probe.existingKernel': '~/k.json' }, ctx);
    assert.deepEqual(settings.interpreter, ['/w/.venv/bin/python']);
    assert.equal(settings.probe.existingKernel, '/home/u/k.json');
    assert.equal(substitute('${env:VENV}/bin/python', ctx), '/v/bin/python');
    assert.equal(substitute('${env:MISSING}x', ctx), 'x');
    assert.equal(substitute('${workspaceFolder}/p', {}), '${workspaceFolder}/p', 'unknown folder stays visible, not silently empty');
});

test('probe settings reach the server once they differ from the defaults', () => {
    const { settings } = read({ 'probe.timeout': 5, 'probe.simulateGpu': 'off' });
    assert.deepEqual(serverSettings(settings).probe, { timeout: 5, simulateGpu: 'off', existingKernel: '', args: [] });
    assert.equal(serverSettings(read({}).settings).probe, undefined);
});

test('server receives only the keys it understands', () => {
    const { settings } = read({ interpreter: ['/p'], importStrategy: 'useBundled', select: ['TP1'] });
    assert.deepEqual(Object.keys(serverSettings(settings)).sort(), [
        'diagnosticMode', 'enable', 'extraDeviceNames', 'ignore', 'reportSyntaxErrors', 'select', 'severity', 'showNotifications',
    ]);
    assert.deepEqual(serverSettings(settings).select, ['TP1']);
});

test('syntax errors: the user\'s choice, else off while Pylance or Pyright reports them', () => {
    const auto = read({}).settings;
    assert.equal(auto.reportSyntaxErrors, undefined);
    assert.equal(serverSettings(auto, { otherParserActive: false }).reportSyntaxErrors, true);
    assert.equal(serverSettings(auto, { otherParserActive: true }).reportSyntaxErrors, false);
    const chosen = read({ reportSyntaxErrors: true }).settings;
    assert.equal(serverSettings(chosen, { otherParserActive: true }).reportSyntaxErrors, true);
    const { problems } = read({ reportSyntaxErrors: 'yes', diagnosticMode: 'everything' });
    assert.deepEqual(problems.map((p) => p.key).sort(), ['torchplace.diagnosticMode', 'torchplace.reportSyntaxErrors']);
});

test('all the problems of a change in one message, each with the value used instead', () => {
    const { problems } = read({ severity: { TP201: 'fatal' }, diagnosticMode: 'all' });
    const message = problemsMessage(problems);
    assert.match(message, /^2 settings have wrong values: /);
    assert.match(message, /torchplace\.severity entry "TP201": "fatal" is not valid .*ignoring it/);
    assert.match(message, /torchplace\.diagnosticMode must be one of "openFiles", "workspace", got "all"; using "openFiles"/);
});

test('which changes restart, reconfigure, start or stop the server', () => {
    const base: TorchplaceSettings = { ...DEFAULT_SETTINGS, probe: { ...DEFAULT_SETTINGS.probe } };
    const withChange = (change: Partial<TorchplaceSettings>) => ({ ...base, ...change });
    assert.equal(changeEffect(base, base), 'none');
    assert.equal(changeEffect(base, withChange({ interpreter: ['/p'] })), 'restart');
    assert.equal(changeEffect(base, withChange({ importStrategy: 'useBundled' })), 'restart');
    assert.equal(changeEffect(base, withChange({ select: ['TP1'] })), 'reconfigure');
    assert.equal(changeEffect(base, withChange({ severity: { TP201: 'error' } })), 'reconfigure');
    assert.equal(changeEffect(base, withChange({ enable: false })), 'stop');
    assert.equal(changeEffect(withChange({ enable: false }), base), 'start');
    assert.equal(changeEffect(withChange({ enable: false }), withChange({ enable: false, select: ['TP1'] })), 'none');
    assert.equal(changeEffect(base, withChange({ probe: { ...base.probe, timeout: 5 } })), 'reconfigure');
});
