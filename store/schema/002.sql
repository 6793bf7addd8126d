-- SPDX-License-Identifier: GPL-2.0-or-later
-- Schema version 2: the reports by SUT class and the history views select
-- runs by SUT and SUTs by class and kernel; index both.
CREATE INDEX runs_by_sut ON runs (sut_id);
CREATE INDEX suts_by_class ON suts (class, kernel);
UPDATE schema_version SET version = 2;
