"""Operations API: run health for the client that submitted the run, or compliance."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from intake import selectors as intake_selectors
from intake.apis import ERROR_RESPONSES
from intake.models import Submission
from review.health import run_health


class StallSerializer(serializers.Serializer):
    handoff = serializers.ChoiceField(
        choices=["ingestion", "assignment", "review", "rendering", "signing", "dead_letter"]
    )
    count = serializers.IntegerField()
    oldest_age_seconds = serializers.IntegerField()


class RunHealthSerializer(serializers.Serializer):
    submission_id = serializers.UUIDField()
    external_ref = serializers.CharField()
    received_at = serializers.DateTimeField()
    statutory_deadline = serializers.DateTimeField()
    counts_by_state = serializers.DictField(child=serializers.IntegerField())
    expected_terminal = serializers.IntegerField()
    observed_terminal = serializers.IntegerField()
    oldest_open_age_seconds = serializers.IntegerField(allow_null=True)
    last_transition_at = serializers.DateTimeField(allow_null=True)
    last_event = serializers.CharField(allow_blank=True)
    holds = serializers.DictField(child=serializers.IntegerField())
    legal_hold = serializers.BooleanField()
    diagnosis = serializers.CharField(help_text="The stalled handoff, or 'healthy'.")
    stalls = StallSerializer(many=True)


class SubmissionHealthApi(APIView):
    @extend_schema(
        operation_id="submission_health",
        responses={200: RunHealthSerializer, **ERROR_RESPONSES},
    )
    def get(self, request: Request, submission_id: str) -> Response:
        try:
            submission = intake_selectors.submission_get(
                user=request.user, submission_id=submission_id
            )
        except Submission.DoesNotExist as exc:
            raise NotFound("no such submission") from exc
        (health,) = run_health(submissions=Submission.objects.filter(pk=submission.pk))
        return Response(RunHealthSerializer(health.as_dict()).data)
