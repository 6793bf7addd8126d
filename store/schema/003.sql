-- SPDX-License-Identifier: GPL-2.0-or-later
-- Schema version 3: zab fleet's outcome per SUT and campaign.  A SUT that
-- was unreachable, failed to install, failed its preflight or its run, or
-- timed out has a state here and no run: a failure is never a measurement.
-- 'complete' means its run is in runs (campaign, sut name).
CREATE TABLE IF NOT EXISTS fleet_states (
    campaign TEXT NOT NULL,
    sut_name TEXT NOT NULL,
    sut_class TEXT NOT NULL,
    experiment TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('unreachable', 'install failed', 'preflight failed',
                                         'run failed', 'timed out', 'complete')),
    detail TEXT NOT NULL,
    updated TEXT NOT NULL,
    PRIMARY KEY (campaign, sut_name)
);
UPDATE schema_version SET version = 3;
