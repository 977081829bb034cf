from apps.chat import bp


@bp.get("/")
def index():
    return "Chat is being built", 200
