"""The HTTP layer: one blueprint per area, each view a few lines (parse, call, serialise).

Every flask-smorest blueprint reads request bodies with :class:`referee.api.json_codec.
BodyOnceParser`: the body ``limits.guard_request`` parsed is not parsed again.  It is set here,
on the class, before any blueprint module decorates its views.
"""
import flask_smorest

from referee.api.json_codec import BodyOnceParser

flask_smorest.Blueprint.ARGUMENTS_PARSER = BodyOnceParser()
