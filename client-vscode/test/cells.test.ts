import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellsFromTop, cellStarts, isCellMarker } from '../src/cells';

test('cell markers', () => {
    assert.ok(isCellMarker('# %%'));
    assert.ok(isCellMarker('#%% setup'));
    assert.ok(isCellMarker('  # %% [markdown]'));
    assert.ok(!isCellMarker('x = 1  # %%'));
    assert.ok(!isCellMarker('# percent'));
});

test('cells from the top skip markdown cells and include code above the first marker', () => {
    const lines = ['import torch', '# %%', 'a = 1', '# %% [markdown]', '# text', '# %%', 'b = 2'];
    assert.deepEqual(cellStarts(lines), [1, 3, 5]);
    assert.deepEqual(cellsFromTop(lines), [0, 1, 5]);
    assert.deepEqual(cellsFromTop(['# header comment', '# %%', 'a = 1']), [1]);
    assert.deepEqual(cellsFromTop(['a = 1', 'b = 2']), [0], 'a file with no markers is one cell');
});
