import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RestartBudget } from '../src/restartBudget';

test('allows a few restarts, then stops', () => {
    let t = 0;
    const budget = new RestartBudget(3, 1000, () => t);
    assert.deepEqual([budget.crashed(), budget.crashed(), budget.crashed(), budget.crashed()], [true, true, true, false]);
    assert.equal(budget.recentCrashes, 4);
    t = 5000; // old crashes are forgotten
    assert.equal(budget.crashed(), true);
    assert.equal(budget.recentCrashes, 1);
});

test('a restart the user asks for starts a new budget', () => {
    const budget = new RestartBudget(1, 1000, () => 0);
    budget.crashed();
    assert.equal(budget.crashed(), false);
    budget.reset();
    assert.equal(budget.crashed(), true);
});
