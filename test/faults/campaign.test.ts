// The fault campaign: a flaky service, kill -9, concurrent builds, an outage, bad input and ambiguous creates, then a search for leaked secrets in everything they left.
//
// One file on purpose: the secrets search runs last and covers every file, log line and error
// of the scenarios before it. Each scenario prints its figures; only behaviour is asserted.
import { afterAll } from 'vitest';
import { Campaign } from './campaign.js';
import { flakyServiceScenario } from './flaky-service.js';
import { killNineScenario } from './kill-nine.js';
import { concurrentBuildsScenario } from './concurrent-builds.js';
import { outageScenario } from './outage.js';
import { badInputScenario } from './bad-input.js';
import { ambiguousCreatesScenario } from './ambiguous-creates.js';
import { secretsScenario } from './secrets.js';

const campaign = new Campaign();
afterAll(() => campaign.close());

flakyServiceScenario(campaign);
killNineScenario(campaign);
concurrentBuildsScenario(campaign);
outageScenario(campaign);
badInputScenario(campaign);
ambiguousCreatesScenario(campaign);
secretsScenario(campaign);
