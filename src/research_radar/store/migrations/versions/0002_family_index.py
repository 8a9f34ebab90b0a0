"""the mechanism-family index kept in the store

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 11:40:00

Persisted MinHash signatures, LSH Forest bands and token document frequencies, so a run
adds only the findings it has not indexed yet instead of rebuilding the index from the
whole history (issue #19).
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("findings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("family_indexed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_index("ix_findings_family_indexed", ["family_indexed"], unique=False)
    op.create_table(
        "family_entries",
        sa.Column("project_key", sa.String(length=512), nullable=False),
        sa.Column("finding_id", sa.Integer(), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("family", sa.String(length=128), nullable=False),
        sa.Column("tokens", sa.JSON(), nullable=False),
        sa.Column("hashvalues", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("project_key"),
    )
    op.create_table(
        "family_bands",
        sa.Column("project_key", sa.String(length=512), nullable=False),
        sa.Column("tree", sa.Integer(), nullable=False),
        sa.Column("band", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("project_key", "tree"),
    )
    with op.batch_alter_table("family_bands", schema=None) as batch_op:
        batch_op.create_index("ix_family_bands_tree_band", ["tree", "band"], unique=False)
    op.create_table(
        "family_terms",
        sa.Column("token", sa.String(length=512), nullable=False),
        sa.Column("df", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("token"),
    )


def downgrade() -> None:
    op.drop_table("family_terms")
    with op.batch_alter_table("family_bands", schema=None) as batch_op:
        batch_op.drop_index("ix_family_bands_tree_band")
    op.drop_table("family_bands")
    op.drop_table("family_entries")
    with op.batch_alter_table("findings", schema=None) as batch_op:
        batch_op.drop_index("ix_findings_family_indexed")
        batch_op.drop_column("family_indexed")
