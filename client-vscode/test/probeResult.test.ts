import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deviceLabel, formatBytes, parseProbeResult } from '../src/probeResult';

const RESULT = {
    schema: 'torchplace-probe/1',
    status: 'error',
    cell: 1,
    first_line: 5,
    last_line: 9,
    lines: [
        { line: 6, hits: 1, values: { a: { kind: 'tensor', device: 'cuda:0', dtype: 'float32', shape: [2] } }, transfers: [], syncs: [] },
        {
            line: 7,
            hits: 1,
            values: { b: { kind: 'tensor', device: 'cpu', dtype: 'float32', shape: [2] } },
            transfers: [{ kind: 'host_to_device', source: 'cpu', target: 'cuda:0', count: 2, bytes: 4000 }],
            syncs: [],
        },
    ],
    error: { type: 'RuntimeError', message: 'Expected all tensors to be on the same device', line: 8, kind: 'device-mismatch', traceback: '' },
    variables: {
        a: { kind: 'tensor', device: 'cuda:0', dtype: 'float32', shape: [2] },
        b: { kind: 'tensor', device: 'cpu', dtype: 'float32', shape: [2] },
        model: { kind: 'module', type: 'Net', devices: ['cuda:0'] },
    },
    device: 'simulated',
    simulated: true,
    notes: ['ran cell 0 first'],
};

test('reads the probe schema into 0-based lines', () => {
    const s = parseProbeResult(RESULT);
    assert.equal(s.ran, true);
    assert.equal(s.status, 'error');
    assert.equal(s.device, 'simulated GPU');
    assert.deepEqual(
        s.variables.map((v) => [v.name, v.description, v.line, v.onAccelerator]),
        [
            ['a', 'cuda:0 float32 [2]', 5, true],
            ['b', 'cpu float32 [2]', 6, false],
            ['model', 'Net on cuda:0', undefined, true],
        ],
    );
    assert.deepEqual(s.transfers, [{ line: 6, text: 'host→device cpu → cuda:0 4.0 KB ×2' }]);
    assert.deepEqual(s.errors, [{ line: 7, message: 'RuntimeError: Expected all tensors to be on the same device' }]);
    assert.deepEqual(s.notes, ['ran cell 0 first']);
    assert.deepEqual(s.cellLines, { first: 4, last: 8 });
    assert.deepEqual(s.hints, [
        { line: 5, text: '→ cuda:0 float32 [2]', isError: false },
        { line: 6, text: '→ cpu float32 [2]  host→device 4.0 KB ×2', isError: false },
        { line: 7, text: '✗ RuntimeError: Expected all tensors to be on the same device', isError: true },
    ]);
});

test('the server wraps the result as {ran: true, result}', () => {
    const s = parseProbeResult({ ran: true, result: RESULT });
    assert.equal(s.device, 'simulated GPU');
    assert.equal(s.variables.length, 3);
});

test('a probe that did not run, and garbage, are reported as not run', () => {
    assert.deepEqual(parseProbeResult({ ran: false, reason: 'probe-not-installed' }).status, 'probe-not-installed');
    assert.equal(parseProbeResult(null).ran, false);
    assert.equal(parseProbeResult('x').ran, false);
});

test('device labels', () => {
    assert.equal(deviceLabel({ device: 'NVIDIA H100 80GB HBM3', simulated: false }), 'cuda:0 — NVIDIA H100 80GB HBM3');
    assert.equal(deviceLabel({ device: 'cpu' }), 'cpu');
    assert.equal(deviceLabel({ device: 'simulated', simulated: true }), 'simulated GPU');
    assert.equal(deviceLabel({}), undefined);
});

test('bytes use the probe\'s decimal units', () => {
    assert.equal(formatBytes(999), '999 B');
    assert.equal(formatBytes(4_000_000), '4.0 MB');
});

test('the root cause and the cells above that raised come with the error, without a ✗ hint', () => {
    const s = parseProbeResult({
        ...RESULT,
        error: {
            ...RESULT.error,
            root_cause: { operand: 'mat1', device: 'cpu', line: 6, cell: 1, kind: 'created' },
        },
        above_errors: [{ cell: 0, type: 'ValueError', message: 'broken setup', line: 3, kind: 'exception' }],
    });
    assert.deepEqual(s.errors, [
        { line: 7, message: 'RuntimeError: Expected all tensors to be on the same device' },
        { line: 5, message: 'root cause: line 6: mat1 was created on cpu here', context: true },
        { line: 2, message: 'cell 1 above: ValueError: broken setup', context: true },
    ]);
    assert.equal(s.hints.filter((h) => h.isError).length, 1);
});

test('a root cause in another file keeps no line of this document', () => {
    const s = parseProbeResult({
        ...RESULT,
        error: { ...RESULT.error, root_cause: { operand: 'x', device: 'cpu', line: 3, file: '/p/data.py', kind: 'moved' } },
    });
    assert.deepEqual(s.errors[1], { line: undefined, message: 'root cause: line 3 of /p/data.py: x was moved to cpu here', context: true });
});
