from apps.crm import bp


@bp.get("/")
def index():
    return "being built", 200
