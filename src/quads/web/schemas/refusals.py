"""A refusal as the API sends it."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = [
    "ErrorDetail",
    "ErrorView",
]



class ErrorDetail(BaseModel):
    """What was refused and why."""

    code: str = Field(description="What kind of refusal (the table of docs/web-api.md)")
    message: str = Field(description="The refusal in English, for developers; a page "
                                     "words it from `code`, `reason` and `params`")
    reason: str | None = Field(
        default=None,
        description="What exactly is wrong, where the refusal says more than its code: "
                    "a short name that stays the same in every language (e.g. "
                    "`already_won`, `turn_number`, `cell_taken`); left out otherwise")
    params: dict[str, str | int] | None = Field(
        default=None,
        description="The values the refusal speaks of, by name: cells and pieces by "
                    "name (`B2`, `F`), shapes by id (`row1`), tokens as written, numbers; "
                    "left out when there are none")


class ErrorView(BaseModel):
    """Every refusal."""

    error: ErrorDetail
