import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findOnPath, InterpreterSource, pathSource, resolveInterpreter, settingSource } from '../src/interpreter';

const source = (name: string, result: string[] | undefined | Error): InterpreterSource => ({
    name,
    resolve: async () => {
        if (result instanceof Error) {
            throw result;
        }
        return result;
    },
});

test('the setting wins over every other source', async () => {
    const resolved = await resolveInterpreter([settingSource(['/s/python']), source('envs', ['/e/python']), source('python', ['/p/python'])]);
    assert.deepEqual(resolved, { command: ['/s/python'], source: 'torchplace.interpreter setting' });
});

test('an empty setting falls through to the Python Environments API, then the Python extension, then PATH', async () => {
    const order = [settingSource([]), source('envs', undefined), source('python', ['/p/python', '-I']), source('PATH', ['/usr/bin/python3'])];
    assert.deepEqual(await resolveInterpreter(order), { command: ['/p/python', '-I'], source: 'python' });
    assert.deepEqual(await resolveInterpreter([settingSource([]), source('envs', ['/e/python']), source('python', ['/p'])]), {
        command: ['/e/python'],
        source: 'envs',
    });
});

test('a source that throws is reported and skipped', async () => {
    const errors: string[] = [];
    const resolved = await resolveInterpreter([source('envs', new Error('boom')), source('PATH', ['/usr/bin/python3'])], (name, e) =>
        errors.push(`${name}: ${(e as Error).message}`),
    );
    assert.deepEqual(resolved?.command, ['/usr/bin/python3']);
    assert.deepEqual(errors, ['envs: boom']);
});

test('no source at all: undefined, so the caller can tell the user', async () => {
    assert.equal(await resolveInterpreter([settingSource([]), source('PATH', undefined)]), undefined);
    assert.equal(await resolveInterpreter([source('blank', [''])]), undefined);
});

test('python3 on PATH is found in PATH order, only as an executable file', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-path-'));
    const [a, b, c] = ['a', 'b', 'c'].map((d) => path.join(root, d));
    [a, b, c].forEach((d) => fs.mkdirSync(d));
    fs.writeFileSync(path.join(a, 'python3'), '#!/bin/sh\n', { mode: 0o644 }); // not executable
    fs.mkdirSync(path.join(b, 'python3')); // a directory
    fs.writeFileSync(path.join(c, 'python3'), '#!/bin/sh\n', { mode: 0o755 });
    const PATH = [a, b, c].join(path.delimiter);
    assert.equal(findOnPath(['python3'], PATH), path.join(c, 'python3'));
    assert.deepEqual(await pathSource(PATH).resolve(), [path.join(c, 'python3')]);
    assert.equal(await pathSource(a).resolve(), undefined);
    assert.equal(findOnPath(['python3'], undefined), undefined);
    fs.rmSync(root, { recursive: true });
});
