-- Run once by the postgres image on an empty data volume (/docker-entrypoint-initdb.d).
-- One database per service (ADR 0002); each service applies its own migrations into it.
CREATE DATABASE arbiter_registry;
CREATE DATABASE arbiter_verdict;
CREATE DATABASE arbiter_ledger;
