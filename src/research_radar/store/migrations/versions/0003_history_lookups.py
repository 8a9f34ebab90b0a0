"""history looked up by name, origin and day, and family

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 19:00:00

A run asks the history only about its own findings: earlier findings by the loose form of
their name (`name_slug`, filled by the first read that needs it), by origin and day, by
family, and the family index's newest day, each by an index instead of a scan (#19).
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("findings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_slug", sa.Text(), nullable=True))
        batch_op.create_index("ix_findings_name_slug", ["name_slug"], unique=False)
        batch_op.create_index("ix_findings_origin_date", ["origin", "date"], unique=False)
        batch_op.create_index("ix_findings_family", ["family"], unique=False)
    with op.batch_alter_table("family_entries", schema=None) as batch_op:
        batch_op.create_index("ix_family_entries_date", ["date"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("family_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_family_entries_date")
    with op.batch_alter_table("findings", schema=None) as batch_op:
        batch_op.drop_index("ix_findings_family")
        batch_op.drop_index("ix_findings_origin_date")
        batch_op.drop_index("ix_findings_name_slug")
        batch_op.drop_column("name_slug")
