CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);

CREATE TABLE aliases (
	alias VARCHAR(512) NOT NULL, 
	project_key VARCHAR(512) NOT NULL, 
	kind VARCHAR(32) NOT NULL, 
	evidence TEXT NOT NULL, 
	PRIMARY KEY (alias)
);

CREATE TABLE claims (
	id INTEGER NOT NULL, 
	source_key VARCHAR(512) NOT NULL, 
	version VARCHAR(128) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	data JSON NOT NULL, 
	hash VARCHAR(64) NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (hash)
);

CREATE TABLE corrections (
	id INTEGER NOT NULL, 
	project_key VARCHAR(512) NOT NULL, 
	date DATE NOT NULL, 
	text TEXT NOT NULL, 
	data JSON NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_correction UNIQUE (project_key, date, text)
);

CREATE TABLE cursors (
	source VARCHAR(32) NOT NULL, 
	"query" TEXT NOT NULL, 
	value TEXT NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (source, "query")
);

CREATE TABLE host_snapshots (
	id INTEGER NOT NULL, 
	host VARCHAR(256) NOT NULL, 
	sha VARCHAR(64) NOT NULL, 
	indexed_at DATETIME NOT NULL, 
	data JSON NOT NULL, 
	PRIMARY KEY (id)
);

CREATE TABLE project_sources (
	project_key VARCHAR(512) NOT NULL, 
	source_key VARCHAR(512) NOT NULL, 
	relation VARCHAR(16) NOT NULL, 
	evidence TEXT NOT NULL, 
	PRIMARY KEY (project_key, source_key)
);

CREATE TABLE projects (
	"key" VARCHAR(512) NOT NULL, 
	name TEXT NOT NULL, 
	fork_of VARCHAR(512), 
	derivative BOOLEAN NOT NULL, 
	family VARCHAR(128), 
	data JSON NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY ("key")
);

CREATE TABLE publications (
	id INTEGER NOT NULL, 
	target VARCHAR(256) NOT NULL, 
	report_date DATE NOT NULL, 
	part INTEGER NOT NULL, 
	marker VARCHAR(128) NOT NULL, 
	comment_id VARCHAR(64), 
	url TEXT, 
	published_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_publication UNIQUE (target, marker)
);

CREATE TABLE raw_responses (
	id INTEGER NOT NULL, 
	source VARCHAR(32) NOT NULL, 
	request_key TEXT NOT NULL, 
	status INTEGER NOT NULL, 
	etag VARCHAR(256), 
	last_modified VARCHAR(64), 
	headers JSON NOT NULL, 
	body BLOB NOT NULL, 
	content_hash VARCHAR(64) NOT NULL, 
	fetched_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_raw_response UNIQUE (source, request_key, content_hash)
);

CREATE TABLE reports (
	date DATE NOT NULL, 
	language VARCHAR(8) NOT NULL, 
	markdown TEXT NOT NULL, 
	content_hash VARCHAR(64) NOT NULL, 
	data JSON NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (date, language)
);

CREATE TABLE runs (
	id INTEGER NOT NULL, 
	command VARCHAR(64) NOT NULL, 
	started_at DATETIME NOT NULL, 
	ended_at DATETIME, 
	status VARCHAR(16) NOT NULL, 
	summary JSON NOT NULL, 
	PRIMARY KEY (id)
);

CREATE TABLE snapshots (
	id INTEGER NOT NULL, 
	source_key VARCHAR(512) NOT NULL, 
	version VARCHAR(128) NOT NULL, 
	version_date DATETIME, 
	data JSON NOT NULL, 
	observed_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_snapshot UNIQUE (source_key, version)
);

CREATE TABLE source_health (
	source VARCHAR(64) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	last_ok_at DATETIME, 
	last_error TEXT, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (source)
);

CREATE TABLE sources (
	"key" VARCHAR(512) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	url TEXT NOT NULL, 
	title TEXT NOT NULL, 
	data JSON NOT NULL, 
	first_seen_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY ("key")
);

CREATE TABLE stage_runs (
	id INTEGER NOT NULL, 
	run_id INTEGER NOT NULL, 
	stage VARCHAR(32) NOT NULL, 
	started_at DATETIME NOT NULL, 
	ended_at DATETIME, 
	status VARCHAR(16) NOT NULL, 
	counts JSON NOT NULL, 
	errors JSON NOT NULL, 
	PRIMARY KEY (id)
);

CREATE TABLE "findings" (
	id INTEGER NOT NULL, 
	project_key VARCHAR(512) NOT NULL, 
	date DATE NOT NULL, 
	origin VARCHAR(256) NOT NULL, 
	name TEXT NOT NULL, 
	family VARCHAR(128), 
	data JSON NOT NULL, 
	created_at DATETIME NOT NULL, 
	family_indexed BOOLEAN DEFAULT 0 NOT NULL, name_slug TEXT, 
	PRIMARY KEY (id), 
	CONSTRAINT uq_finding UNIQUE (project_key, date, origin)
);

CREATE TABLE family_entries (
	project_key VARCHAR(512) NOT NULL, 
	finding_id INTEGER NOT NULL, 
	date DATE NOT NULL, 
	name TEXT NOT NULL, 
	family VARCHAR(128) NOT NULL, 
	tokens JSON NOT NULL, 
	hashvalues BLOB NOT NULL, 
	PRIMARY KEY (project_key)
);

CREATE TABLE family_bands (
	project_key VARCHAR(512) NOT NULL, 
	tree INTEGER NOT NULL, 
	band BLOB NOT NULL, 
	PRIMARY KEY (project_key, tree)
);

CREATE TABLE family_terms (
	token VARCHAR(512) NOT NULL, 
	df INTEGER NOT NULL, 
	PRIMARY KEY (token)
);

CREATE INDEX ix_aliases_project_key ON aliases (project_key);

CREATE INDEX ix_claims_source_key ON claims (source_key);

CREATE INDEX ix_snapshots_source_key ON snapshots (source_key);

CREATE INDEX ix_stage_runs_run_id ON stage_runs (run_id);

CREATE INDEX ix_findings_project_key ON findings (project_key);

CREATE INDEX ix_findings_family_indexed ON findings (family_indexed);

CREATE INDEX ix_family_bands_tree_band ON family_bands (tree, band);

CREATE INDEX ix_findings_name_slug ON findings (name_slug);

CREATE INDEX ix_findings_origin_date ON findings (origin, date);

CREATE INDEX ix_findings_family ON findings (family);

CREATE INDEX ix_family_entries_date ON family_entries (date);

INSERT INTO alembic_version (version_num) VALUES ('0003');
