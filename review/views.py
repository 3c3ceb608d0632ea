from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from review.selectors import item_counts_by_queue_and_state


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "review/home.html", {"counts": item_counts_by_queue_and_state()})
