from apps.tickets import bp


@bp.get("/")
def index():
    return "being built", 200
