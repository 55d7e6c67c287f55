# One box, SQLite and the in-memory channel layer: the same app `make run` serves.
FROM python:3.12-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    DB_PATH=/data/db.sqlite3 SECRET_KEY_FILE=/data/.secret_key
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
RUN SECRET_KEY=build python manage.py collectstatic --noinput >/dev/null \
 && SECRET_KEY=build python manage.py compilemessages --ignore=.venv >/dev/null
RUN useradd -m app && mkdir -p /data && chown app /data
USER app
VOLUME /data
EXPOSE 8000
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py clear_presence && exec daphne -b 0.0.0.0 -p 8000 --websocket_timeout -1 mafiagames.asgi:application"]
