from apps.calendar import bp


@bp.get("/")
def index():
    return "Calendar is being built", 200
