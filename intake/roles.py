"""The intake service-account group: intake systems submit documents and read their own
submissions. The group is made by migration with the human roles (`review.roles`)."""

INTAKE_CLIENT = "intake_client"
