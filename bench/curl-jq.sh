#!/usr/bin/env bash
# The export a user would write without leadctl: one curl per page, jq turns each page into CSV rows,
# stop at the first empty page. Usage: curl-jq.sh <base-url> <api-key>   (CSV on stdout)
set -euo pipefail
base_url=$1
api_key=$2
echo 'id,name,address,phone,website,rating,review_count,category,saved_at'
page=1
while :; do
  body=$(curl -sS --fail -H "Authorization: Bearer ${api_key}" "${base_url}/api/v1/leads?page=${page}&limit=100")
  rows=$(printf '%s' "$body" | jq -r '.leads[] | [.id, .name, .address, .phone, .website, .rating, .review_count, .category, .saved_at] | @csv')
  [ -z "$rows" ] && break
  printf '%s\n' "$rows"
  page=$((page + 1))
done
