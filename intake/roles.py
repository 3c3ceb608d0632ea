"""The intake service-account group: intake systems submit documents and read their own
submissions, through an API token only. The group is made by migration with the human
roles (`review.roles`); who may call what is `common.authz.MATRIX`."""

from common.authz import INTAKE_CLIENT

__all__ = ["INTAKE_CLIENT"]
